"""Packaging for Scrapyd: ``scrapyd-deploy`` builds an egg of the ``skeleton``
package from this file. The ``scrapy`` entry point names the settings module and
``package_data`` puts the data files inside the egg: the default SEW model
(``skeleton/models/*.json``, read by :func:`skeleton.sew.model.load_model`) and
the shipped stop-word lists (``skeleton/entropy/stopwords/*.txt``, read by
:func:`skeleton.entropy.terms.stop_words`), both as package resources (never a
filesystem path)."""
from setuptools import find_packages, setup

setup(
    name="skeleton",
    version="0.1.0",
    description="Maps a website's navigation skeleton (SEW) with Scrapy and Redis",
    packages=find_packages(include=["skeleton", "skeleton.*"]),
    package_data={"skeleton.models": ["*.json"], "skeleton.entropy": ["stopwords/*.txt"]},
    include_package_data=False,
    zip_safe=True,
    python_requires=">=3.11",
    entry_points={"scrapy": ["settings = skeleton.settings"]},
)
