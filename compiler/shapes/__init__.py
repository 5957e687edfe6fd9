"""Stage 3: the winning shapes: each shape kind recognises, arranges and completes hands, one class per kind."""
