"""Mail in and out of the referee: `inbound/` takes and reads mail, `outbound/` writes, queues
and sends it, `daemon/` ties them to the service. The top modules here serve both directions."""
