"""The saved-game format's name, version and the fields each version added (no imports, so
that saving a game loads nothing beyond numpy; `schema.py` holds the format itself)."""

SCHEMA = "asara-env/state"
VERSION = 2  # 2 added the gifts (R9.2); version 1 saves load as games without gifts
GIFT_FIELDS = ("gift_pile", "gifts", "gift_queue", "gift_chest", "pending_target", "pending_space")
