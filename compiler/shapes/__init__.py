"""Stage 3: the winning shapes. Each shape kind is one class (base.py: the protocol), registered in
kinds.py; suits.py holds the per-suit tables they share, arrangements.py the arrangements they
make, waits.py the one answer to "which tiles complete this hand"."""
