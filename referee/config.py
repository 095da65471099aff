"""Settings: embedded defaults, then a TOML file, then REFEREE_* environment variables.

The defaults work with no file at all: data under `./var`, SMTP on a loopback port, and
outgoing mail captured into a local Maildir instead of a relay, so a newcomer can run the
daemon without configuring anything and read what it would have sent.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

ENV_PREFIX = "REFEREE_"


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class Limits:
    max_message_bytes: int = 1_048_576  # larger mail is refused at DATA (552)
    max_spool_messages: int = 1_000  # above this the SMTP server answers 452: the sender retries
    spool_reserved_percent: int = 20  # of those, the share only mail to a valid token address may take
    max_recipients: int = 10
    commands_per_session: int = 100
    mails_per_sender_per_hour: int = 60
    refusals_per_sender_per_hour: int = 1  # answers to a player's address whose mail matched no seat
    smtp_timeout_seconds: int = 120
    pending_signups_per_address: int = 3  # JOINs one address may have waiting for their confirmation
    signups_per_address_per_hour: int = 5  # JOIN requests one address may make in an hour
    desk_answers_per_address_per_hour: int = 10  # answers from the referee's own address (LIST, GAMES, refusals)
    press_per_player_per_hour: int = 20  # table talk one player may send in an hour (each PRESS counts)
    press_max_bytes: int = 8000  # the longest table talk passed on, in bytes of UTF-8
    desk_answers_to_newcomers_per_hour: int = 30  # the same, over every address that holds no seat here
    pending_signups_per_seat: int = 3  # sign-ups an open game keeps waiting per seat; beyond, the oldest lapse
    sent_records_per_game: int = 100  # a game file keeps the records of its newest mails sent this many; 0: all


@dataclass(frozen=True)
class Settings:
    hostname: str = "localhost"  # the mail domain of game addresses: <game>@hostname
    sender_name: str = "Referee"
    listen_host: str = "127.0.0.1"
    listen_port: int = 8025
    data_dir: Path = Path("var")
    relay: str = ""  # empty: capture into <data_dir>/relay (a Maildir); or smtp://host:port, smtps://…
    relay_user: str = ""
    relay_password: str = ""
    worker_interval_seconds: float = 1.0
    worker_processes: int = 0  # mail workers, each with its share of the games; 0: one per processor, at most 4
    sender_interval_seconds: float = 5.0
    relay_connections: int = 4  # at most this many connections to the relay at once
    tick_interval_seconds: float = 60.0  # how often the daemon looks for due deadlines and reminders
    computer_seconds: float = 30.0  # the longest a computer player may think; then its default orders are played
    default_policy: str = "standard"  # the deadline preset of a game created without --policy
    moderator_email: str = ""  # where deadline alerts go when a game's policy names nobody
    spool_keep_days: int = 30  # processed mail kept for audit (spool/archive, spool/cur); 0: for good
    log_file: str = ""  # where `serve` and its processes log (appended); empty: standard error
    limits: Limits = field(default_factory=Limits)

    @property
    def relay_url(self) -> str:
        return self.relay or f"maildir:{self.data_dir / 'relay'}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Limits):
                out[f.name] = {lf.name: getattr(value, lf.name) for lf in fields(value)}
            elif f.name == "relay_password":
                out[f.name] = "********" if value else ""
            else:
                out[f.name] = str(value) if isinstance(value, Path) else value
        return out


def _coerce(name: str, current: Any, raw: Any) -> Any:
    kind = type(current)
    try:
        if isinstance(current, bool):
            if isinstance(raw, bool):
                return raw
            return str(raw).strip().lower() in ("1", "true", "yes", "on")
        if isinstance(current, Path):
            return Path(str(raw))
        if kind in (int, float):
            return kind(raw)
        return str(raw)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}: {raw!r} is not a valid {kind.__name__}") from None


def _merge(settings: Settings, data: Mapping[str, Any], origin: str) -> Settings:
    known = {f.name: f for f in fields(Settings)}
    changes: dict[str, Any] = {}
    for key, raw in data.items():
        if key not in known:
            raise ConfigError(f"{origin}: unknown setting {key!r}; known: {', '.join(sorted(known))}")
        if key == "limits":
            if not isinstance(raw, Mapping):
                raise ConfigError(f"{origin}: [limits] must be a table")
            limit_fields = {f.name for f in fields(Limits)}
            for lk in raw:
                if lk not in limit_fields:
                    raise ConfigError(f"{origin}: unknown limit {lk!r}; known: {', '.join(sorted(limit_fields))}")
            changes["limits"] = replace(
                settings.limits,
                **{lk: _coerce(f"limits.{lk}", getattr(settings.limits, lk), lv) for lk, lv in raw.items()},
            )
        else:
            changes[key] = _coerce(key, getattr(settings, key), raw)
    return replace(settings, **changes)


def _from_env(settings: Settings, environ: Mapping[str, str]) -> Settings:
    flat: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    for f in fields(Settings):
        name = ENV_PREFIX + f.name.upper()
        if f.name == "limits":
            for lf in fields(Limits):
                env_name = f"{ENV_PREFIX}LIMITS_{lf.name.upper()}"
                if env_name in environ:
                    limits[lf.name] = environ[env_name]
        elif name in environ:
            flat[f.name] = environ[name]
    if limits:
        flat["limits"] = limits
    return _merge(settings, flat, "environment")


def load(path: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None) -> Settings:
    """Effective settings. `path` None means REFEREE_CONFIG if set, else no file."""
    environ = os.environ if environ is None else environ
    settings = Settings()
    path = path or environ.get(ENV_PREFIX + "CONFIG") or None
    if path:
        try:
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
        except FileNotFoundError:
            raise ConfigError(f"config file {path} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
        settings = _merge(settings, data, str(path))
    settings = _from_env(settings, environ)
    if not 0 < settings.listen_port < 65536:
        raise ConfigError(f"listen_port {settings.listen_port} is out of range")
    from .policy import PRESETS

    if settings.default_policy not in PRESETS:
        raise ConfigError(f"default_policy {settings.default_policy!r} is not a preset; presets: {', '.join(PRESETS)}")
    if settings.tick_interval_seconds <= 0:
        raise ConfigError("tick_interval_seconds must be more than 0")
    if settings.computer_seconds <= 0:
        raise ConfigError("computer_seconds must be more than 0")
    if settings.relay_connections < 1:
        raise ConfigError("relay_connections must be at least 1")
    if not 0 <= settings.worker_processes <= 64:
        raise ConfigError("worker_processes must be between 0 (one per processor) and 64")
    limits = settings.limits
    if not 0 <= limits.spool_reserved_percent <= 100:
        raise ConfigError("limits.spool_reserved_percent must be between 0 and 100")
    if limits.refusals_per_sender_per_hour < 0:
        raise ConfigError("limits.refusals_per_sender_per_hour must be 0 or more")
    if limits.press_per_player_per_hour < 0:
        raise ConfigError("limits.press_per_player_per_hour must be 0 or more")
    if limits.press_max_bytes < 1:
        raise ConfigError("limits.press_max_bytes must be at least 1")
    for name in ("desk_answers_per_address_per_hour", "desk_answers_to_newcomers_per_hour"):
        if getattr(limits, name) < 0:
            raise ConfigError(f"limits.{name} must be 0 or more")
    if limits.sent_records_per_game < 0:
        raise ConfigError("limits.sent_records_per_game must be 0 (keep all) or more")
    if limits.pending_signups_per_seat < 1:
        raise ConfigError("limits.pending_signups_per_seat must be at least 1")
    if settings.spool_keep_days < 0:
        raise ConfigError("spool_keep_days must be 0 (keep for good) or more")
    if settings.relay and not settings.relay.startswith(("maildir:", "smtp://", "smtps://")):
        raise ConfigError(f"relay {settings.relay!r} must start with maildir:, smtp:// or smtps://")
    return settings
