"""Tournaments: a roster in, tables of games, standings, ratings and a verifiable archive out.

The rules of a tournament are pure functions of plain data (roster.py, pairing.py,
scoring.py, standings.py, ratings.py, archive.py); `organiser.py` applies them to games it
creates through the service (`referee.service.Referee`), and `store.py` keeps each
tournament in a TinyDB file of its own under `<data_dir>/tournaments/`. docs/tournaments.md
says how an organiser uses it.
"""
