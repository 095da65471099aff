"""The demo's players and its patience, apart from the run itself: `referee demo`'s options
name them, and `referee --help` reads those options without importing the daemon."""

PLAYER_NAMES = ("alice", "bruno", "chiara", "dmitri", "emma")
STALL_SECONDS = 30.0
