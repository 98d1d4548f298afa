"""A designer's project as its ``printkit.toml`` sets it: where the QR codes point and the rest of
the file (``base_url``), the limits in force and how a designer raises them (``limits``,
``limit_keys``), the project's folders and where a command may write (``project_folders``),
the record of the files a command wrote, so a later run removes only those
(``written_files``), and noticing saved changes to its files (``watching``).

Shared by printkit and the companion, so that both find and read a project the same way.
"""
