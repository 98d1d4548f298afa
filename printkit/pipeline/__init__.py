"""The build pipeline behind ``printkit build`` and ``printkit validate``: load, lay out, draw,
publish, one module a stage (:mod:`printkit.pipeline.build` runs them and says what each does)."""
