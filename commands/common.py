"""What every game command shares: the service for the chosen data directory, JSON output,
and turning failures into one-line messages with the documented exit statuses."""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, NoReturn, TypeVar

import click

from referee.config import Settings
from referee.errors import BadRequest, ServiceError
from referee.store.interface import GameFileBroken, GameNotFound, StoreBusy, StoreError

from .owner import NotTheOwner, act_as_owner

if TYPE_CHECKING:
    from mailer.daemon.wiring import Services
    from referee.service import Referee

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_SOFTWARE = 70  # EX_SOFTWARE from sysexits.h: an unexpected failure (a bug)
EXIT_IOERR = 74  # EX_IOERR: a data file is damaged, or the disk refused a read or a write
EXIT_TEMPFAIL = 75  # EX_TEMPFAIL from sysexits.h: try again later
EXIT_PIPE = 141  # 128 + SIGPIPE, as a shell reports a program whose output was closed (`| head`)

F = TypeVar("F", bound=Callable[..., Any])


def services(ctx: click.Context) -> Services:
    """Store, service and mail parts for the chosen settings, with the real clock (tests may
    put another clock in the context); as the data directory's owner (commands/owner.py).
    The mail parts and the service are imported here, not with the module: `referee --help`
    and the commands that need neither start without them."""
    from mailer.daemon.wiring import build
    from referee.service import system_clock

    obj = ctx.find_root().obj or {}
    settings = obj.get("settings") or Settings(data_dir=obj["data_dir"])
    try:
        act_as_owner(obj["data_dir"])
    except NotTheOwner as exc:  # an MTA's pipe keeps the mail until the command is set up right
        fail(str(exc), EXIT_TEMPFAIL if ctx.info_name == "ingest" else EXIT_REFUSED)
    return build(replace(settings, data_dir=obj["data_dir"]), clock=obj.get("clock", system_clock))


def referee(ctx: click.Context) -> Referee:
    """The service, wired to the outbox so that what the CLI does is reported by mail too."""
    return services(ctx).referee


def fail(message: str, code: int = EXIT_REFUSED) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(code)


def closed_pipe() -> NoReturn:
    """Standard output was closed by its reader (`referee history g | head`): stop quietly.
    Output still buffered would fail again when the interpreter exits, so it goes nowhere."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (a test's capture): nothing is left to fail
    raise SystemExit(EXIT_PIPE)


class OutputError(OSError):
    """Standard output could not be written (a full device, an I/O error): not the data
    directory's trouble, and said so."""


def echo_out(text: str, nl: bool = True) -> None:
    """Write `text` to standard output whole, or fail: BrokenPipeError when its reader has
    left, OutputError when it cannot be written. A large write into a pipe whose reader left
    is cut short by the kernel, and Python's buffered writer takes the part written for the
    whole without an error, so the command ended 0 with its output lost; here the descriptor
    is written until everything is out. A stream with no descriptor (a test's capture) gets
    the text through click."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        click.echo(text, nl=nl)
        return
    data = (text + ("\n" if nl else "")).encode(sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict")
    try:
        sys.stdout.flush()
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.errno, exc.strerror) from exc


def output_trouble(exc: OSError) -> bool:
    """Whether an OSError came from writing standard output: raised by `echo_out`, or by
    click.echo writing to it."""
    if isinstance(exc, OutputError):
        return True
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name == "echo" and code.co_filename.endswith(os.path.join("click", "utils.py")) \
                and not tb.tb_frame.f_locals.get("err"):
            return True
        tb = tb.tb_next
    return False


def disk_trouble(exc: OSError) -> str:
    """An operating-system error as one line that says what to do."""
    what = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    return (f"the data directory could not be read or written{where}: {what}; a change that failed was not "
            "written (every game file is replaced whole or not at all); mend the cause and run the command again")


class Group(click.Group):
    """The command group: a reader that closes our output early ends the command quietly,
    whichever command it is.

    Its commands may be named lazily, as "module:attribute" under their name (click's
    lazy-loading pattern): a command's module is imported when the command is looked up, so a
    process that runs one command imports that command's module only, and `referee --help`
    imports the modules but not what they import inside their functions."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            if not isinstance(command, click.Command) or command.name != cmd_name:
                raise RuntimeError(f"{self.lazy[cmd_name]} is not the command {cmd_name!r}")
            self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            closed_pipe()


def handles_errors(func: F) -> F:
    """Known failures become a clear line on stderr and an exit status, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BadRequest as exc:
            for problem in exc.problems:
                click.echo(f"Error: {problem}", err=True)
            raise SystemExit(EXIT_USAGE) from None
        except StoreBusy as exc:
            fail(str(exc), EXIT_TEMPFAIL)
        except GameFileBroken as exc:
            fail(str(exc), EXIT_IOERR)
        except GameNotFound as exc:
            fail(f"{exc}; `referee list` shows the games")
        except (ServiceError, StoreError) as exc:
            fail(str(exc))
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except BrokenPipeError:
            closed_pipe()
        except OSError as exc:  # a full disk, an I/O error, a permission; or the output's
            if output_trouble(exc):
                fail(f"standard output could not be written: {exc.strerror or exc}; whatever the command changed "
                     "was written before its output", EXIT_IOERR)
            fail(disk_trouble(exc), EXIT_IOERR)
        except Exception as exc:
            # A bug: still one line. A change that failed half-way was not written; the store
            # writes all or nothing.
            if os.environ.get("REFEREE_DEBUG"):
                raise
            game = kwargs.get("game_id")
            about = f" while working on game {game}" if isinstance(game, str) else ""
            fail(f"unexpected failure{about} ({exc.__class__.__name__}: {exc}); nothing was changed by it; "
                 "set REFEREE_DEBUG=1 for details", EXIT_SOFTWARE)

    return wrapper  # type: ignore[return-value]


def echo_json(value: Any) -> None:
    echo_out(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False))
