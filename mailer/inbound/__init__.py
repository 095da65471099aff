"""Mail arriving: the SMTP server (a process of its own), the spool, and the reading of one mail
into values the referee can trust. Imports referee and mailer's top modules; never outbound/."""
