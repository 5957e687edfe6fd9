"""What the rules talk about: tile codes and tile sets, groups of tiles, hands (with their notation and JSON form)."""
