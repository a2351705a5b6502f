"""Rooms, the store's side: `log` (each room an append-only log of versioned events,
written only if its version is still the last), `rows` (a room's values checked and
serialised before any transaction, and the appends a server batches), `announcements`
(each committed append told to every server on PostgreSQL, with its events) and `judge`
(what the pure referee asks of the room's solution, each question an indexed lookup)."""
