"""cortexfs: the /ctx FUSE projection, object ABI, policy and ctx tools."""

__version__ = "0.1.0"
