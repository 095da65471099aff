"""The HTML part shows what waited for a mail (a receipt, a reminder, a notice) as prose the
screen wraps: the logical lines of the text part, each whole, rebuilt from its 78 columns."""

from __future__ import annotations

import random

from referee.rendering import logical_lines, prose, wrap

WORDS = ("a an the order orders gold G1 C2-I OCCUPY TAKE Domus Regia 12 talents, you ship; done. "
         "plan construction: extraordinarily long-winded Praefectus").split()


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).rstrip(":") + "."


def test_wrapped_paragraphs_come_back_whole_whatever_their_indents():
    """Random texts of the shapes the mail writes: paragraphs filled flush (reminders,
    notices), with blank lines around them, lines with a hanging indent (receipts), a
    heading with items under it, items with a suggestion under them; each logical line comes
    back once, whole, with its indent."""
    rng = random.Random(7)
    for _ in range(300):
        lines, expected = [], []
        for _ in range(rng.randint(1, 4)):
            shape = rng.choice(("flush", "hanging", "list"))
            text = sentence(rng, rng.randint(1, 40))
            if shape == "list":
                expected.append((0, "Errors:"))
                lines.append("Errors:")
                for _ in range(rng.randint(1, 3)):
                    item, hint = sentence(rng, rng.randint(1, 30)), sentence(rng, rng.randint(1, 20))
                    lines.append(wrap(item, 2, 6, 78))
                    expected.append((2, item))
                    if rng.random() < 0.5:
                        lines.append(wrap("suggestion: " + hint, 4, 8, 78))
                        expected.append((4, "suggestion: " + hint))
            elif shape == "flush":  # a notice: a paragraph of its own
                lines += ["", wrap(text, 0, 0, 78), ""]
                expected.append((0, text))
            else:
                lines.append(wrap(text, 0, 2, 78))
                expected.append((0, text))
        got = [line for line in logical_lines("\n".join(lines)) if line[1]]
        assert got == expected, "\n".join(lines)


def test_prose_is_escaped_html_with_a_line_break_between_logical_lines():
    text = wrap("Accepted: " + "OCCUPY <dock> & more " * 6 + "words", 0, 2, 78) + "\nNext line"
    assert "\n  " in text  # wrapped
    assert prose(text) == "Accepted: " + "OCCUPY &lt;dock&gt; &amp; more " * 6 + "words<br>Next line"
