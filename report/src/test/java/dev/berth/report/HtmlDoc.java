package dev.berth.report;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The HTML report parsed as XML, which it is written to be, queried with XPath. */
final class HtmlDoc {

  private final Document doc;

  private HtmlDoc(Document doc) {
    this.doc = doc;
  }

  static HtmlDoc parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(false);
    f.setExpandEntityReferences(false);
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return new HtmlDoc(f.newDocumentBuilder().parse(new InputSource(new StringReader(html))));
  }

  List<Element> all(String xpath) throws Exception {
    NodeList nodes = (NodeList) XPathFactory.newInstance().newXPath().evaluate(xpath, doc, XPathConstants.NODESET);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      out.add((Element) nodes.item(i));
    }
    return out;
  }

  /** The text of the single element matching, which must exist. */
  String text(String xpath) throws Exception {
    List<Element> found = all(xpath);
    if (found.size() != 1) {
      throw new AssertionError(found.size() + " elements match " + xpath);
    }
    return found.get(0).getTextContent();
  }

  /** The texts of the cells of a table row, in order. */
  static List<String> cells(Element row) {
    List<String> out = new ArrayList<>();
    NodeList tds = row.getElementsByTagName("td");
    for (int i = 0; i < tds.getLength(); i++) {
      out.add(tds.item(i).getTextContent());
    }
    return out;
  }
}
