"""The designer's loop: a project folder (``project``) made by ``printkit init`` with a starter
game (``starter_game``) and layouts written for a declared game (``generated_layouts``); the
commands ``init``, ``build --watch``, ``export`` and ``preview`` (``project_commands``); the
live preview page (``preview``) and noticing saves (``watch``).
"""
