/**
 * Parsing XML that arrives from outside (SAML messages), safely:
 *
 * - bounded in size before anything reads it;
 * - no document type declaration at all (SAML Core §1.3 and the SAML
 *   security considerations: a message must not carry a DTD), so no internal
 *   or external entity, no entity expansion, no billion laughs. The text is
 *   refused on `<!DOCTYPE` or `<!ENTITY` before the parser sees it, and the
 *   parsed document is checked again for a doctype node;
 * - no NUL character, raw or as a character reference (`&#0;`, `&#x0;`): XML
 *   1.0's Char production excludes it, and a NUL reaching a value would reach
 *   PostgreSQL's text columns (../http/nul-characters.ts);
 * - any parser warning or error refuses the document (xmldom otherwise
 *   recovers from malformed input and builds a tree from what it guessed).
 *
 * The caller gets a Document or an XmlRefusal with a message fit for a log;
 * what the message says is never sent back verbatim to the party that sent it.
 */
import type * as XmlDom from '@xmldom/xmldom';
import type { Document, Element, Node } from '@xmldom/xmldom';
import { lazyModule } from '../lazy.js';

/** @xmldom/xmldom, loaded with the first XML parsed or built (SAML and WS-Federation only). */
export const xmldom = lazyModule<typeof XmlDom>('@xmldom/xmldom');

export type { Document, Element, Node } from '@xmldom/xmldom';

export class XmlRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefusal';
  }
}

/** Bytes of XML accepted by default: a SAML message with a certificate and many attributes stays far below. */
export const MAX_XML_BYTES = 256 * 1024;

const DECLARATIONS = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;
const NUL = /\u0000|&#(0+|x0+);/i;

export function parseXml(text: string, maxBytes = MAX_XML_BYTES): Document {
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw new XmlRefusal(`XML larger than ${maxBytes} bytes`);
  if (DECLARATIONS.test(text)) throw new XmlRefusal('XML with a document type declaration (DOCTYPE or ENTITY) is refused');
  if (NUL.test(text)) throw new XmlRefusal('XML with a NUL character is refused');
  let document: Document;
  try {
    document = new (xmldom().DOMParser)({
      onError: (level, message) => {
        throw new XmlRefusal(`malformed XML (${level}): ${message}`);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    throw error instanceof XmlRefusal ? error : new XmlRefusal(`malformed XML: ${(error as Error).message}`);
  }
  if (document.doctype !== null) throw new XmlRefusal('XML with a document type declaration is refused');
  if (!document.documentElement) throw new XmlRefusal('XML without a root element');
  return document;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** The element children of `parent` (no text, comments or processing instructions). */
export function childElements(parent: Node): Element[] {
  const out: Element[] = [];
  for (let child = parent.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) out.push(child as Element);
  }
  return out;
}

/** The element children of `parent` named `localName` in namespace `ns`. */
export function childrenNamed(parent: Node, ns: string, localName: string): Element[] {
  return childElements(parent).filter((e) => e.namespaceURI === ns && e.localName === localName);
}

/** The one child `localName` in `ns`; undefined when there is none; an XmlRefusal when there are several. */
export function onlyChild(parent: Node, ns: string, localName: string): Element | undefined {
  const found = childrenNamed(parent, ns, localName);
  if (found.length > 1) throw new XmlRefusal(`more than one ${localName} element`);
  return found[0];
}

/**
 * The text of an element whose content must be text alone. A comment,
 * processing instruction or child element inside it is refused: a comment
 * splitting a NameID (`user@evil.com<!---->.example.com`) reads as two
 * different values to parsers that take the first text node or all of them
 * (the 2018 SAML comment-injection advisories).
 */
export function textOf(element: Element): string {
  let text = '';
  for (let child = element.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== TEXT_NODE && child.nodeType !== CDATA_SECTION_NODE) {
      throw new XmlRefusal(`unexpected content (node type ${child.nodeType}) inside ${element.localName}`);
    }
    text += child.nodeValue ?? '';
  }
  return text;
}

const COMMENT_NODE = 8;
const PROCESSING_INSTRUCTION_NODE = 7;

/**
 * Whether a comment or processing instruction is anywhere below `node`.
 * SAML messages carry none; exclusive c14n leaves comments out of the digest,
 * so one inside a signed value (`user@corp.com<!---->.evil.com`) changes how
 * a parser reads the value without breaking the signature.
 */
export function hasCommentsOrInstructions(node: Node): boolean {
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === COMMENT_NODE || child.nodeType === PROCESSING_INSTRUCTION_NODE) return true;
    if (child.nodeType === ELEMENT_NODE && hasCommentsOrInstructions(child)) return true;
  }
  return false;
}
