"""``imsmanifest.xml`` for a SCORM 1.2 package and for a Common Cartridge 1.1, with ``xml.etree``.

SCORM 1.2 (ADL's Content Aggregation Model): the IMS Content Packaging 1.1.2 namespace with
ADL's ``adlcp`` 1.2 extension, ``schemaversion`` 1.2, one organization whose items are the
lecture's parts (each launching the page with ``?part=N``) or one item for the whole, each a
SCO (``adlcp:scormtype="sco"``) with the mastery score the lecturer set. Every file of the
package is listed under the one resource, by a relative path.

Common Cartridge 1.1 (IMS CC 1.1 profile of Content Packaging): the page and its files as a
``webcontent`` resource, the self-check's exercises as an IMS QTI 1.2 assessment
(:mod:`attnvid.publish.qti`) as CC 1.1 requires, both in one ``rooted-hierarchy`` organization.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass

IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
IMSMD = "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"
XML = "http://www.w3.org/XML/1998/namespace"
CC = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
LOM = "http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest"
_SCORM_LOCATIONS = f"{IMSCP} imscp_rootv1p1p2.xsd {IMSMD} imsmd_rootv1p2p1.xsd {ADLCP} adlcp_rootv1p2.xsd"
_CC_LOCATIONS = (f"{CC} http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imscp_v1p2_v1p0.xsd "
                 f"{LOM} http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lommanifest_v1p0.xsd")
#: The resource type CC 1.1 gives a QTI 1.2 assessment.
CC_ASSESSMENT = "imsqti_xmlv1p2/imscc_xmlv1p1/assessment"


@dataclass(frozen=True)
class Item:
    """One entry of the course's table of contents: its title and what follows the launch page (``?part=2``)."""

    title: str
    parameters: str = ""


def _xml(root: ET.Element) -> bytes:
    ET.indent(root, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode").encode() + b"\n"


def _files(resource: ET.Element, ns: str, files: Sequence[str]) -> None:
    for name in files:
        ET.SubElement(resource, f"{{{ns}}}file", {"href": name})


def scorm12_manifest(identifier: str, title: str, language: str, items: Sequence[Item], files: Sequence[str],
                     mastery: int, launch: str = "index.html") -> bytes:
    """The SCORM 1.2 ``imsmanifest.xml``: one organization, ``items`` as SCOs on one resource; the
    title and language in its IMS metadata (LOM) too."""
    ET.register_namespace("", IMSCP)
    ET.register_namespace("adlcp", ADLCP)
    ET.register_namespace("imsmd", IMSMD)
    ET.register_namespace("xsi", XSI)
    root = ET.Element(f"{{{IMSCP}}}manifest", {"identifier": identifier, "version": "1.0",
                                               f"{{{XSI}}}schemaLocation": _SCORM_LOCATIONS})
    meta = ET.SubElement(root, f"{{{IMSCP}}}metadata")
    ET.SubElement(meta, f"{{{IMSCP}}}schema").text = "ADL SCORM"
    ET.SubElement(meta, f"{{{IMSCP}}}schemaversion").text = "1.2"
    general = ET.SubElement(ET.SubElement(meta, f"{{{IMSMD}}}lom"), f"{{{IMSMD}}}general")
    ET.SubElement(ET.SubElement(general, f"{{{IMSMD}}}title"), f"{{{IMSMD}}}langstring",
                  {f"{{{XML}}}lang": language}).text = title
    ET.SubElement(general, f"{{{IMSMD}}}language").text = language
    orgs = ET.SubElement(root, f"{{{IMSCP}}}organizations", {"default": "org-1"})
    org = ET.SubElement(orgs, f"{{{IMSCP}}}organization", {"identifier": "org-1"})
    ET.SubElement(org, f"{{{IMSCP}}}title").text = title
    for k, item in enumerate(items, 1):
        attrs = {"identifier": f"item-{k}", "identifierref": "resource-1", "isvisible": "true"}
        if item.parameters:
            attrs["parameters"] = item.parameters
        el = ET.SubElement(org, f"{{{IMSCP}}}item", attrs)
        ET.SubElement(el, f"{{{IMSCP}}}title").text = item.title
        ET.SubElement(el, f"{{{ADLCP}}}masteryscore").text = str(mastery)
    resources = ET.SubElement(root, f"{{{IMSCP}}}resources")
    res = ET.SubElement(resources, f"{{{IMSCP}}}resource", {"identifier": "resource-1", "type": "webcontent",
                                                             f"{{{ADLCP}}}scormtype": "sco", "href": launch})
    _files(res, IMSCP, files)
    return _xml(root)


def cc_manifest(identifier: str, title: str, language: str, page_files: Sequence[str], launch: str,
                quiz: tuple[str, str] | None) -> bytes:
    """The Common Cartridge 1.1 ``imsmanifest.xml``: the page as web content and ``quiz``
    ((title, path of its QTI file)) as an assessment."""
    ET.register_namespace("", CC)
    ET.register_namespace("lomimscc", LOM)
    ET.register_namespace("xsi", XSI)
    root = ET.Element(f"{{{CC}}}manifest", {"identifier": identifier, f"{{{XSI}}}schemaLocation": _CC_LOCATIONS})
    meta = ET.SubElement(root, f"{{{CC}}}metadata")
    ET.SubElement(meta, f"{{{CC}}}schema").text = "IMS Common Cartridge"
    ET.SubElement(meta, f"{{{CC}}}schemaversion").text = "1.1.0"
    general = ET.SubElement(ET.SubElement(meta, f"{{{LOM}}}lom"), f"{{{LOM}}}general")
    ET.SubElement(ET.SubElement(general, f"{{{LOM}}}title"), f"{{{LOM}}}string", {"language": language}).text = title
    ET.SubElement(general, f"{{{LOM}}}language").text = language
    org = ET.SubElement(ET.SubElement(root, f"{{{CC}}}organizations"), f"{{{CC}}}organization",
                        {"identifier": "org-1", "structure": "rooted-hierarchy"})
    top = ET.SubElement(ET.SubElement(org, f"{{{CC}}}item", {"identifier": "root"}), f"{{{CC}}}item",
                        {"identifier": "module-1"})
    ET.SubElement(top, f"{{{CC}}}title").text = title
    page = ET.SubElement(top, f"{{{CC}}}item", {"identifier": "item-1", "identifierref": "resource-1"})
    ET.SubElement(page, f"{{{CC}}}title").text = title
    resources = ET.SubElement(root, f"{{{CC}}}resources")
    res = ET.SubElement(resources, f"{{{CC}}}resource", {"identifier": "resource-1", "type": "webcontent",
                                                         "href": launch})
    _files(res, CC, page_files)
    if quiz is not None:
        q = ET.SubElement(top, f"{{{CC}}}item", {"identifier": "item-2", "identifierref": "resource-2"})
        ET.SubElement(q, f"{{{CC}}}title").text = quiz[0]
        qres = ET.SubElement(resources, f"{{{CC}}}resource", {"identifier": "resource-2", "type": CC_ASSESSMENT})
        _files(qres, CC, [quiz[1]])
    return _xml(root)
