"""upskill: author rules, skills and agents once; install them into every AI coding client."""

__version__ = "0.1.0"
