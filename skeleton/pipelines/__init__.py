"""The project's item pipelines."""
