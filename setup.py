"""Packaging for Scrapyd: ``scrapyd-deploy`` builds an egg of the ``skeleton``
package from this file. The ``scrapy`` entry point names the settings module and
``package_data`` puts the default SEW model (``skeleton/models/*.json``) inside
the egg, where :func:`skeleton.sew.model.load_model` reads it as a package
resource (never a filesystem path)."""
from setuptools import find_packages, setup

setup(
    name="skeleton",
    version="0.1.0",
    description="Maps a website's navigation skeleton (SEW) with Scrapy and Redis",
    packages=find_packages(include=["skeleton", "skeleton.*"]),
    package_data={"skeleton.models": ["*.json"]},
    include_package_data=False,
    zip_safe=True,
    python_requires=">=3.11",
    entry_points={"scrapy": ["settings = skeleton.settings"]},
)
