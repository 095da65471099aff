"""Mail leaving: reports and notices rendered, composed, queued with the turn, sent to the relay.
Imports referee and mailer's top modules; never inbound/ or daemon/."""
