"""Stage 1: a variant file read with the position of every value, validated by the JSON
Schema, and the compile cache."""
