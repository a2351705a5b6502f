"""Best plans per reachable position, for memorisable strategies.

Solutions stored before this revision keep ``has_plans`` false and have no plan rows;
``ghostdb solve NAME --force`` fills them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("solutions") as batch:
        batch.add_column(
            sa.Column("has_plans", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
    op.create_table(
        "plans",
        sa.Column("solution_id", sa.Integer(), nullable=False),
        sa.Column("fragment", sa.Text(), nullable=False),
        sa.Column("plan_next", sa.Text(), nullable=True),
        sa.Column("mover_lossiness", sa.SmallInteger(), nullable=False),
        sa.Column("mover_outcomes", sa.BigInteger(), nullable=False),
        sa.Column("mover_letters", sa.BigInteger(), nullable=False),
        sa.Column("waiter_lossiness", sa.SmallInteger(), nullable=False),
        sa.Column("waiter_outcomes", sa.BigInteger(), nullable=False),
        sa.Column("waiter_letters", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("solution_id", "fragment", name="pk_plans"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("plans")
    with op.batch_alter_table("solutions") as batch:
        batch.drop_column("has_plans")
