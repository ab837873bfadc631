/**
 * The offline manual (locales/<lang>/manual.md) and its renderer's parser (web/features/help/markdown.ts):
 * the languages hold the same sections, every link inside points at a section that exists, the
 * workbench's links open existing sections, and markup in the text never becomes markup.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languages } from '../../server/contract/languages.ts';
import { anchorsOf, parseBlocks, parseInline, parseSections } from '../../web/features/help/markdown.ts';
import { workbenchManualSections } from '../../web/features/help/manual-anchors.ts';

const manual = (lng: string): string => readFileSync(new URL(`../../locales/${lng}/manual.md`, import.meta.url), 'utf8');

describe('offline manual', () => {
  it('has the same sections and subsections, in the same order, in every language', () => {
    const [base, ...others] = languages.map((lng) => anchorsOf(manual(lng)));
    expect(base!.length).toBeGreaterThan(8);
    for (const anchors of others) expect(anchors).toEqual(base);
  });

  it('covers getting started, MQTT, TLS, HTTP, TCP, thing models, provisioning, ThingsBoard and troubleshooting', () => {
    expect(anchorsOf(manual('zh_CN'))).toEqual(
      expect.arrayContaining(['getting-started', 'mqtt', 'mqtt-tls', 'http', 'tcp', 'thing-model', 'provisioning', 'thingsboard', 'troubleshooting', 'troubleshooting-refused', 'troubleshooting-flagged', 'troubleshooting-disk', 'troubleshooting-license']),
    );
  });

  it('links only to sections that exist, from inside and from the workbench', () => {
    for (const lng of languages) {
      const text = manual(lng);
      const anchors = anchorsOf(text);
      const links = [...text.matchAll(/\]\(#([a-z0-9-]+)\)/g)].map((m) => m[1]);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(anchors, `${lng} links to #${link}`).toContain(link);
      for (const section of Object.values(workbenchManualSections)) expect(anchors, `${lng} lacks #${section}`).toContain(section);
    }
  });

  it('fills the gateway host and ports into every command and leaves no placeholder behind', () => {
    for (const lng of languages) {
      const sections = parseSections(manual(lng), { host: 'gw.local', base: 'http://gw.local:8080', mqttPort: '1999', mqttsPort: '8999', tlsState: 'TLS.', caFile: 'gw.pem' });
      const all = sections.map((s) => s.searchText).join('\n');
      expect(all).toContain('mosquitto_pub -h gw.local -p 1999');
      expect(all).toContain('-p 8999 --cafile gw.pem');
      expect(all).toContain('http://gw.local:8080/api/v1/<access_token>/telemetry');
      expect(all).not.toMatch(/\{\{\w+\}\}/);
    }
  });
});

describe('manual markdown subset', () => {
  it('keeps markup in the text as text', () => {
    const blocks = parseBlocks('## Title {#t}\n\n<script>alert(1)</script> and <img src=x onerror=alert(1)>\n');
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, id: 't', text: 'Title' },
      { kind: 'paragraph', inlines: [{ kind: 'text', text: '<script>alert(1)</script> and <img src=x onerror=alert(1)>' }] },
    ]);
  });

  it('turns links to anything but an anchor, a console path or a web address into plain text', () => {
    const inlines = parseInline('[a](javascript:alert) [b](#mqtt) [c](/api/docs) [d](//evil.example) [e](data:text/html,x) [f](http://10.0.0.5/doc)');
    expect(inlines.filter((n) => n.kind === 'link')).toEqual([
      { kind: 'link', text: 'b', href: '#mqtt' },
      { kind: 'link', text: 'c', href: '/api/docs' },
      { kind: 'link', text: 'f', href: 'http://10.0.0.5/doc' },
    ]);
    expect(inlines.map((n) => n.text).join('')).toBe('a b c d e f');
  });

  it('reads code fences, lists and tables', () => {
    const blocks = parseBlocks('```\ncurl x\n  -d y\n```\n- one `a`\n- **two**\n\n| K | V |\n|---|---|\n| `t` | v |\n');
    expect(blocks).toEqual([
      { kind: 'code', text: 'curl x\n  -d y' },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'one ' }, { kind: 'code', text: 'a' }], [{ kind: 'strong', text: 'two' }]] },
      { kind: 'table', head: [[{ kind: 'text', text: 'K' }], [{ kind: 'text', text: 'V' }]], rows: [[[{ kind: 'code', text: 't' }], [{ kind: 'text', text: 'v' }]]] },
    ]);
  });
});
