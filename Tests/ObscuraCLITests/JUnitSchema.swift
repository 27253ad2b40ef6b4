import Foundation

/// A compact XML Schema of the JUnit report layout that CI services accept: the shape of the
/// Ant/Jenkins `junit-10.xsd` (testsuites → testsuite → properties, testcase, system-out/err;
/// testcase → skipped, error, failure), written out here so the check needs no download.
enum JUnitSchema {
    static let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
          <xs:simpleType name="count"><xs:restriction base="xs:nonNegativeInteger"/></xs:simpleType>
          <xs:simpleType name="seconds"><xs:restriction base="xs:decimal"><xs:minInclusive value="0"/></xs:restriction></xs:simpleType>
          <xs:complexType name="problem">
            <xs:simpleContent>
              <xs:extension base="xs:string">
                <xs:attribute name="message" type="xs:string"/>
                <xs:attribute name="type" type="xs:string"/>
              </xs:extension>
            </xs:simpleContent>
          </xs:complexType>
          <xs:element name="testsuites">
            <xs:complexType>
              <xs:sequence><xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/></xs:sequence>
              <xs:attribute name="name" type="xs:string"/>
              <xs:attribute name="tests" type="count"/>
              <xs:attribute name="failures" type="count"/>
              <xs:attribute name="errors" type="count"/>
              <xs:attribute name="disabled" type="count"/>
              <xs:attribute name="time" type="seconds"/>
            </xs:complexType>
          </xs:element>
          <xs:element name="testsuite">
            <xs:complexType>
              <xs:sequence>
                <xs:element name="properties" minOccurs="0">
                  <xs:complexType>
                    <xs:sequence>
                      <xs:element name="property" minOccurs="0" maxOccurs="unbounded">
                        <xs:complexType>
                          <xs:attribute name="name" type="xs:string" use="required"/>
                          <xs:attribute name="value" type="xs:string" use="required"/>
                        </xs:complexType>
                      </xs:element>
                    </xs:sequence>
                  </xs:complexType>
                </xs:element>
                <xs:element name="testcase" minOccurs="0" maxOccurs="unbounded">
                  <xs:complexType>
                    <xs:sequence>
                      <xs:element name="skipped" minOccurs="0" type="problem"/>
                      <xs:element name="error" minOccurs="0" maxOccurs="unbounded" type="problem"/>
                      <xs:element name="failure" minOccurs="0" maxOccurs="unbounded" type="problem"/>
                      <xs:element name="system-out" minOccurs="0" maxOccurs="unbounded" type="xs:string"/>
                      <xs:element name="system-err" minOccurs="0" maxOccurs="unbounded" type="xs:string"/>
                    </xs:sequence>
                    <xs:attribute name="name" type="xs:string" use="required"/>
                    <xs:attribute name="classname" type="xs:string"/>
                    <xs:attribute name="assertions" type="xs:string"/>
                    <xs:attribute name="time" type="seconds"/>
                    <xs:attribute name="status" type="xs:string"/>
                    <xs:attribute name="file" type="xs:string"/>
                    <xs:attribute name="line" type="xs:string"/>
                  </xs:complexType>
                </xs:element>
                <xs:element name="system-out" minOccurs="0" type="xs:string"/>
                <xs:element name="system-err" minOccurs="0" type="xs:string"/>
              </xs:sequence>
              <xs:attribute name="name" type="xs:string" use="required"/>
              <xs:attribute name="tests" type="count" use="required"/>
              <xs:attribute name="failures" type="count"/>
              <xs:attribute name="errors" type="count"/>
              <xs:attribute name="disabled" type="count"/>
              <xs:attribute name="skipped" type="count"/>
              <xs:attribute name="time" type="seconds"/>
              <xs:attribute name="timestamp" type="xs:string"/>
              <xs:attribute name="hostname" type="xs:string"/>
              <xs:attribute name="id" type="xs:string"/>
              <xs:attribute name="package" type="xs:string"/>
              <xs:attribute name="file" type="xs:string"/>
            </xs:complexType>
          </xs:element>
        </xs:schema>

        """
}
