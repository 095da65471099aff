"""A player's mail of orders, as the tests of the mail path write it."""

from email.message import EmailMessage

HOST = "games.test"


def order_mail(game_id: str, player: str, token: str, text: str, n: int, host: str = HOST) -> tuple[str, bytes]:
    """To the player's reply address, with a Message-ID fixed by game and `n`: the address
    and the message's bytes."""
    msg = EmailMessage()
    to = f"{game_id}+{player}+{token}@{host}"
    msg["From"], msg["To"], msg["Subject"] = f"{player}@players.test", to, "orders"
    msg["Message-ID"] = f"<{game_id}.{player}.{n}@players.test>"
    msg.set_content(text + "\n")
    return to, bytes(msg)


def spooled(to: str, raw: bytes) -> bytes:
    """The message as the SMTP server writes it to the spool, its envelope recipient on top."""
    return f"Delivered-To: {to}\r\n".encode() + raw
