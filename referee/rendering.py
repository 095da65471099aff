"""Finds the Jinja templates and builds the one environment every renderer uses.

In a checkout the templates are the top-level `templates/` folder; an installed wheel carries
them inside the package as `referee/templates/` (see pyproject.toml), so both places are tried.
Templates are never looked up relative to the current directory.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

_PACKAGE_DIR = Path(__file__).resolve().parent


def template_dir() -> Path:
    for candidate in (_PACKAGE_DIR / "templates", _PACKAGE_DIR.parent / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the Referee templates are missing from this installation")


@lru_cache(maxsize=1)
def environment() -> Environment:
    """StrictUndefined turns a misspelt variable into an error instead of an empty report;
    HTML is escaped, plain text is not (a text mail must not contain `&amp;`)."""
    return Environment(
        loader=FileSystemLoader(str(template_dir())),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html", "htm", "xml"], default_for_string=False),
        keep_trailing_newline=True,
    )


def render(name: str, **context: object) -> str:
    return environment().get_template(name).render(**context)
