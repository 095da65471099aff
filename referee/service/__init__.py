"""The service: `Referee`, the one way into a game for the CLI and the mail worker; a module per
duty. Imports referee's lower modules (store, contract, progress, policy...), never mailer/."""

from ..errors import BadRequest, ServiceError
from .core import Clock, stored_game_problem, system_clock
from .creating import NewGame
from .facade import Referee
from .moderation import Adjudication
from .steps import Reopened, TickAction
from .submissions import Reading, Submission
from .table_talk import PressOutcome, PressRequest, Talk
from .ticking import next_wake

__all__ = ["Adjudication", "BadRequest", "Clock", "NewGame", "PressOutcome", "PressRequest", "Reading", "Referee",
           "Reopened", "ServiceError", "Submission", "Talk",
           "TickAction", "next_wake", "stored_game_problem", "system_clock"]
