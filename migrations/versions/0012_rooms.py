"""Rooms: matches played by several people over the web, kept as logs of events.

* ``rooms``: one row per room, keyed by the random URL-safe id its creator made: the
  dictionary or game played (``name``), the rule set's key, its settings as JSON, its
  ``status`` (``waiting``, ``playing``, ``over``), ``version`` (the number of its last
  event) and ``rematch`` (the id of the room its rematch is played in, once made).
* ``room_seats``: one row per seat of a room, in seat order: who plays it (``human``
  or a computer strategy), the display name of the person who joined it, and the
  SHA-256 of the seat's token (never the token itself).
* ``room_events``: a room's append-only log, one row per event numbered ``v`` = 1, 2,
  3, … within the room, its body the event as JSON.  The key (room, ``v``) is what
  makes two writers of one version collide: exactly one of them wins.

Nothing is filled in: rooms are made as people create them.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rematch", sa.String(32), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_rooms"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "room_seats",
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_room_seats_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "seat", name="pk_room_seats"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "room_events",
        sa.Column("room_id", sa.String(32), nullable=False),
        sa.Column("v", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(24), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name="fk_room_events_room_id_rooms", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("room_id", "v", name="pk_room_events"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("room_events")
    op.drop_table("room_seats")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
