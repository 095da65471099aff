"""What ties the two directions to the service: the wiring, the worker that answers spooled mail,
the `referee serve` loop. Imports inbound/, outbound/ and referee; nothing in mailer/ imports it."""
