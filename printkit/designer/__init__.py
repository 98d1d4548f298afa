"""A designer's tools around the build: spreadsheet import and Tabletop Simulator export."""
