"""`referee demo`: a whole game by mail on loopback, with bots for players and a capture relay.
Not production mail code; it may import mailer (the daemon and the mail reader) and referee."""
