<?xml version="1.0" encoding="UTF-8"?>
<!--
  ISO Schematron (queryBinding xslt2) to an XSLT 3.0 stylesheet that writes SVRL, for the subset the Peppol
  BIS Billing 3.0 and XRechnung rule files use: ns, let (schema, pattern and rule level), pattern, rule,
  assert, report, value-of, name, include, and XSLT functions written inside the schema. Phases are not
  read: every pattern runs (neither file names a default phase).

  Semantics kept from the standard: within one pattern, each node of the document is the context of at
  most one rule, the first in document order whose context matches it (here: one template mode per pattern,
  rule priorities descending); schema and pattern level variables are global; an assert that is false is a
  `svrl:failed-assert` with its id, flag and role, a report that is true a `svrl:successful-report`.

  With the parameter `merge-peppol` (the Peppol BIS schema) and `rule-list` (XRechnung's whitelist), the
  schema is first merged the way the XRechnung release builds its UBL rules: Peppol's global lets and
  functions are added, and every Peppol pattern holding a whitelisted assert, with only its rules holding
  one and of those only the whitelisted asserts (an id whitelisted twice in one pattern numbered -1, -2).
-->
<xsl:stylesheet version="3.0"
  xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
  xmlns:axsl="urn:billing-service:alias:xsl"
  xmlns:sch="http://purl.oclc.org/dsdl/schematron"
  xmlns:svrl="http://purl.oclc.org/dsdl/svrl"
  xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:r="rule"
  exclude-result-prefixes="sch xs r">
  <xsl:namespace-alias stylesheet-prefix="axsl" result-prefix="xsl"/>
  <xsl:output method="xml" indent="yes"/>

  <xsl:param name="merge-peppol" as="xs:string" select="''"/>
  <xsl:param name="rule-list" as="xs:string" select="''"/>

  <xsl:variable name="whitelist" as="xs:string*" select="if ($rule-list) then doc($rule-list)/*/r:rule/normalize-space() else ()"/>
  <xsl:variable name="peppol" select="if ($merge-peppol) then doc($merge-peppol)/sch:schema else ()"/>

  <!-- the schema with its includes in place and, when asked, the Peppol rules merged in -->
  <xsl:variable name="schema" as="element(sch:schema)">
    <xsl:apply-templates select="/sch:schema" mode="assemble"/>
  </xsl:variable>

  <xsl:template match="sch:include" mode="assemble">
    <xsl:apply-templates select="doc(resolve-uri(@href, base-uri(.)))/*" mode="assemble"/>
  </xsl:template>
  <xsl:template match="/sch:schema" mode="assemble">
    <xsl:copy>
      <xsl:copy-of select="@*"/>
      <xsl:apply-templates mode="assemble"/>
      <xsl:if test="$peppol">
        <xsl:copy-of select="$peppol/sch:ns, $peppol/sch:let, $peppol/xsl:function"/>
        <xsl:apply-templates select="$peppol/sch:pattern[sch:rule/sch:assert/@id = $whitelist]" mode="peppol"/>
      </xsl:if>
    </xsl:copy>
  </xsl:template>
  <xsl:template match="node() | @*" mode="assemble">
    <xsl:copy>
      <xsl:apply-templates select="node() | @*" mode="assemble"/>
    </xsl:copy>
  </xsl:template>

  <xsl:template match="sch:rule[not(sch:assert/@id = $whitelist)]" mode="peppol"/>
  <xsl:template match="sch:assert" mode="peppol">
    <xsl:variable name="id" select="string(@id)"/>
    <xsl:if test="$id = $whitelist">
      <xsl:copy>
        <xsl:copy-of select="@*"/>
        <xsl:if test="count(../../sch:rule/sch:assert[@id = $id]) gt 1">
          <xsl:attribute name="id" select="concat($id, '-', count(preceding::sch:assert[@id = $id]) + 1)"/>
        </xsl:if>
        <xsl:copy-of select="node()"/>
      </xsl:copy>
    </xsl:if>
  </xsl:template>
  <xsl:template match="node() | @*" mode="peppol">
    <xsl:copy>
      <xsl:apply-templates select="node() | @*" mode="peppol"/>
    </xsl:copy>
  </xsl:template>

  <!-- the compiled stylesheet -->
  <xsl:template match="/">
    <xsl:variable name="patterns" select="$schema//sch:pattern[sch:rule]"/>
    <axsl:stylesheet version="3.0">
      <xsl:for-each select="$schema/sch:ns">
        <xsl:namespace name="{@prefix}" select="string(@uri)"/>
      </xsl:for-each>
      <xsl:copy-of select="$schema/xsl:function"/>
      <xsl:for-each select="$schema/sch:let | $schema/sch:pattern/sch:let">
        <axsl:variable name="{@name}" select="{@value}"/>
      </xsl:for-each>

      <axsl:template match="/">
        <svrl:schematron-output>
          <xsl:for-each select="$patterns">
            <svrl:active-pattern id="{(@id, concat('pattern-', position()))[1]}"/>
            <axsl:apply-templates select="/" mode="P{position()}"/>
          </xsl:for-each>
        </svrl:schematron-output>
      </axsl:template>

      <xsl:for-each select="$patterns">
        <xsl:variable name="mode" select="concat('P', position())"/>
        <xsl:variable name="rules" select="sch:rule"/>
        <xsl:for-each select="$rules">
          <axsl:template match="{@context}" mode="{$mode}" priority="{count($rules) - position() + 1}">
            <xsl:for-each select="sch:let">
              <axsl:variable name="{@name}" select="{@value}"/>
            </xsl:for-each>
            <xsl:apply-templates select="sch:assert | sch:report"/>
            <axsl:apply-templates select="@* | node()" mode="{$mode}"/>
          </axsl:template>
        </xsl:for-each>
        <axsl:template match="text() | comment() | processing-instruction()" mode="{$mode}" priority="-1"/>
        <axsl:template match="/ | * | @*" mode="{$mode}" priority="-2">
          <axsl:apply-templates select="@* | node()" mode="{$mode}"/>
        </axsl:template>
      </xsl:for-each>
    </axsl:stylesheet>
  </xsl:template>

  <xsl:template match="sch:assert | sch:report">
    <axsl:if test="{if (self::sch:assert) then concat('not(', @test, ')') else @test}">
      <xsl:element name="{if (self::sch:assert) then 'svrl:failed-assert' else 'svrl:successful-report'}">
        <xsl:copy-of select="@id, @flag, @role"/>
        <axsl:attribute name="location" select="path()"/>
        <svrl:text>
          <xsl:apply-templates mode="message"/>
        </svrl:text>
      </xsl:element>
    </axsl:if>
  </xsl:template>

  <xsl:template match="text()" mode="message">
    <axsl:text>
      <xsl:value-of select="."/>
    </axsl:text>
  </xsl:template>
  <xsl:template match="sch:value-of" mode="message">
    <axsl:value-of select="{@select}"/>
  </xsl:template>
  <xsl:template match="sch:name" mode="message">
    <axsl:value-of select="{if (@path) then concat('name(', @path, ')') else 'name()'}"/>
  </xsl:template>
  <xsl:template match="*" mode="message"/>
</xsl:stylesheet>
