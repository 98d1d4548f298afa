"""Card text: fitted to its region (wrapped, shrunk in 0.5 pt steps), set in lines and drawn as
measured, in the bundled or a designer's fonts, with inline icons."""
