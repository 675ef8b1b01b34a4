"""Where matches are kept: SQLite or PostgreSQL behind one ``Database`` protocol, and the schema.

Only the service (``bot.service``) imports this package: it alone writes the database, and
the front ends read through the service's queries (``bot.service.queries``).
"""
