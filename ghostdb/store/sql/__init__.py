"""The SQL plumbing every concern of the store stands on: `db` (opening databases,
SQLite's settings, the schema's revision, write transactions), `schema` (the tables as
SQLAlchemy Core), `queries` (the statements the concerns share), `raw` (reads on the
driver's own connection, for the hot paths) and `faults` (a driver's or the system's
error as one line for the user)."""
