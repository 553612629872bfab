import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allScores, resetScores, setScores } from '../arguments.js';

const HERE = dirname(fileURLToPath(import.meta.url));

/** Fractional number literals in `text` outside strings, regular expressions and comments. */
function fractionalIn(text: string): { literal: string; line: number }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const found: { literal: string; line: number }[] = [];
  // which open braces are `${` of a template, so that their "}" is read as the template going on
  const braces: boolean[] = [];
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    // a "/" after something that ends an operand divides; anywhere else it opens a regular expression
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !endsOperand(previous))
      kind = scanner.reScanSlashToken();
    if (kind === ts.SyntaxKind.OpenBraceToken) braces.push(false);
    else if (kind === ts.SyntaxKind.TemplateHead) braces.push(true);
    else if (kind === ts.SyntaxKind.CloseBraceToken && braces.pop() === true) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === ts.SyntaxKind.TemplateMiddle) braces.push(true);
    }
    if (kind === ts.SyntaxKind.NumericLiteral && /[.eE]/.test(scanner.getTokenText())) {
      found.push({ literal: scanner.getTokenText(), line: text.slice(0, scanner.getTokenStart()).split('\n').length });
    }
    previous = kind;
  }
  return found;
}

function fractionalLiterals(file: string): string[] {
  return fractionalIn(readFileSync(join(HERE, file), 'utf8')).map((f) => `${file}:${f.line}: ${f.literal}`);
}

function endsOperand(kind: ts.SyntaxKind): boolean {
  return (
    kind === ts.SyntaxKind.Identifier ||
    kind === ts.SyntaxKind.NumericLiteral ||
    kind === ts.SyntaxKind.StringLiteral ||
    kind === ts.SyntaxKind.CloseParenToken ||
    kind === ts.SyntaxKind.CloseBracketToken ||
    kind === ts.SyntaxKind.ThisKeyword
  );
}

describe('the mapper scores are data (issue 41)', () => {
  it('no module file writes a fractional score in code: scores live in data/scores with their source', () => {
    const files = readdirSync(HERE).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'scores.ts' && f !== 'test-tool.ts',
    );
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap(fractionalLiterals);
    expect(found).toEqual([]);
  });

  it('the scanner finds a fractional literal in code and ignores strings, comments and regular expressions', () => {
    expect(fractionalLiterals('scores.ts')).toEqual([]);
    const code =
      'function f() { return { a: 0.45 }; } // 0.3\nconst r = /0\\.5/; const s = "0.2"; const t = `x ${g({ k: 1.5 })} y ${2} z`;\nconst d = a / 2.5; if (x) { y = 7e-3; }';
    const seen = fractionalIn(code).map((f) => f.literal);
    expect(seen).toEqual(['0.45', '1.5', '2.5', '7e-3']);
  });

  it('every score has a unique name, says what it rewards, and where its value came from', () => {
    // every module's table is registered once the mapper is loaded (one group per module file)
    expect(allScores().size).toBeGreaterThan(150);
    for (const [name, s] of allScores()) {
      expect(name).toMatch(/^[a-z][A-Za-z]*\.[A-Za-z][A-Za-z0-9]*$/);
      expect(s.why.length, name).toBeGreaterThan(8);
      expect(s.source === 'hand-set' || s.source.startsWith('fitted: '), `${name}: ${s.source}`).toBe(true);
      expect(Number.isFinite(s.v), name).toBe(true);
    }
  });

  it('setScores refuses an unknown name or a value that is no finite number; resetScores puts values back', () => {
    expect(() => setScores({ 'nosuch.score': 1 })).toThrow(/no score named "nosuch.score"/);
    const [name, s] = [...allScores()][0];
    const before = s.v;
    expect(() => setScores({ [name]: Number.NaN })).toThrow(/finite/);
    setScores({ [name]: before + 1 });
    expect(s.v).toBe(before + 1);
    resetScores();
    expect(s.v).toBe(before);
  });
});

describe("the dev requests a score's rule was written from (Score.from)", () => {
  it('are eval ids, at least one and each once per entry (tools/mapper/score-sources.test.ts checks they exist)', () => {
    const sourced = [...allScores()].filter(([, sc]) => sc.from !== undefined);
    // (the sourced rules that held on the half they were not written from keep their sources: a
    // registry that dropped them all would fail here)
    expect(sourced.length).toBeGreaterThan(20);
    for (const [name, sc] of sourced) {
      const from = sc.from!;
      expect(from.length, name).toBeGreaterThan(0);
      for (const id of from) expect(id, name).toMatch(/^[a-z]+:[\w.-]+$/);
      expect(new Set(from).size, `${name} names a request twice`).toBe(from.length);
    }
  });
});
