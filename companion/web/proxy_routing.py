"""What a reverse proxy in front of several companion processes needs to know to send each
table's requests to one process.

Any process can answer any request: a table lives in the database, and each process checks
its cached fold of a table against the table's version on every request. But a process whose
fold is behind, because another process wrote, reads the new rows and folds them again, and
the parts of the live page drawn for that version (shared by the phones polling it) are drawn
again there. When a table's four phones all reach one process, the table's fold and parts stay
hot in that process and each version is folded and drawn once: at 200 phones on two processes
spreading every request round-robin cost 25-30% more server CPU per request (README, Benchmark).

So the proxy hashes the table named in the path (``nginx``: ``hash $companion_table``), and a
process that goes away hands its tables to the others, which read them from the database as
usual. A plain hash (nginx: the key's CRC32 modulo the processes) spreads the tables as evenly
as their random tokens allow: with 50 tables on two processes, one got 50-70% of the servers' CPU
over eleven runs. ``consistent`` hashing did no better (52-71% over nine runs); it only moves fewer
tables when processes come and go.
"""

from __future__ import annotations

TABLE_IN_PATH: tuple[str, ...] = (r"^/t/([^/]+)", r"^/api/tables/([^/]+)")
"""Regular expressions (the same in Python and in PCRE, as nginx reads them) whose first group
is the table a request's path names: a table page's link token (``/t/<token>...``), or the API's
code or token (``/api/tables/<code>...``). A JSON client that joined by code and then uses the
token the API answers with reaches the same process as the table's pages."""


def nginx_table_map(variable: str = "$companion_table", indent: str = "    ") -> str:
    """nginx's ``map`` block setting ``variable`` (e.g. ``$companion_table``) to the table a
    request's path names, empty for any other request (which ``hash`` then spreads
    round-robin), as lines indented by ``indent``."""
    lines = [f"map $uri {variable} {{"]
    lines += [f"    ~{pattern} $1;" for pattern in TABLE_IN_PATH]
    lines += ['    default "";', "}"]
    return "\n".join(indent + line for line in lines)
