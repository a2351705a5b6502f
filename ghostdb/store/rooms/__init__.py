"""Rooms, the store's side: `log` (each room an append-only log of versioned events,
written only if its version is still the last, announced to other servers on
PostgreSQL) and `judge` (what the pure referee asks of the room's solution, each
question an indexed lookup)."""
