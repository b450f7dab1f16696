"""Patch languages: Stripper:Source configs and the PCRE bridges."""
