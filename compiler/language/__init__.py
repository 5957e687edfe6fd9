"""Stage 2: the expression language of variant files: grammar, type checker, typed IR,
optimising passes, Python emitter."""
