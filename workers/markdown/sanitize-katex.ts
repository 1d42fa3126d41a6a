/**
 * What KaTeX output may contain, for the sanitizer's allow-list (math.ts). KaTeX builds MathML for
 * assistive technology next to styled spans (and a few SVGs for stretchy symbols); with `trust`
 * off, none of it carries user-chosen URLs or markup.
 */

export const KATEX_TAGS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msub',
  'msup', 'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr',
  'mtd', 'mlabeledtr', 'mpadded', 'mphantom', 'menclose', 'mstyle', 'svg', 'path', 'line',
];

const TOKEN_ATTRIBUTES = ['mathvariant', 'stretchy', 'fence', 'separator', 'lspace', 'rspace', 'minsize', 'maxsize', 'symmetric', 'largeop', 'movablelimits', 'accent', 'form'];

export const KATEX_ATTRIBUTES: Record<string, string[]> = {
  span: ['style'],
  math: ['xmlns', 'display'],
  annotation: ['encoding'],
  mi: TOKEN_ATTRIBUTES,
  mn: TOKEN_ATTRIBUTES,
  mo: TOKEN_ATTRIBUTES,
  mtext: TOKEN_ATTRIBUTES,
  mspace: ['width', 'height', 'depth', 'linebreak', 'mathbackground'],
  mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
  mover: ['accent', 'accentunder'],
  munder: ['accent', 'accentunder'],
  munderover: ['accent', 'accentunder'],
  mfrac: ['linethickness'],
  mtable: ['rowspacing', 'columnspacing', 'columnalign', 'rowlines', 'columnlines', 'frame', 'framespacing', 'displaystyle', 'width', 'side'],
  mtr: ['columnalign', 'rowalign'],
  mtd: ['columnalign', 'rowalign', 'style'],
  menclose: ['notation', 'mathbackground'],
  mstyle: ['scriptlevel', 'displaystyle', 'mathcolor', 'mathsize', 'mathbackground'],
  svg: ['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'style'],
  path: ['d'],
  line: ['x1', 'y1', 'x2', 'y2', 'stroke-width'],
};

/** KaTeX's span classes: its stylesheet's names, the numbered and prefixed families as patterns. */
export const KATEX_SPAN_CLASSES: readonly (string | RegExp)[] = [
  /^(?:katex|m|size|reset-size|delim-size|col-align-|text|vlist|accent|brace-|halfarrow-|cd-|x-arrow|overline|underline)[a-z0-9-]*$/,
  'fontsize-ensurer', 'amsrm', 'angl', 'anglpad', 'arraycolsep', 'base', 'boldsymbol', 'boxpad',
  'cancel-lap', 'cancel-pad', 'clap', 'delimcenter', 'delimsizing', 'delimsizinginner', 'eqn-num',
  'fbox', 'fcolorbox', 'fix', 'fleqn', 'frac-line', 'hbox', 'hdashline', 'hide-tail', 'hline',
  'inner', 'large-op', 'leftmost', 'leqno', 'llap', 'newline', 'nulldelimiter', 'op-limits',
  'op-symbol', 'overlay', 'pstrut', 'rlap', 'root', 'rule', 'sizing', 'small-op', 'sout', 'sqrt',
  'stretchy', 'strut', 'svg-align', 'tag', 'thinbox', 'vbox', 'vertical-separator', 'cancel',
  'bcancel', 'xcancel', 'nobreak', 'allowbreak', 'smash',
];

/** CSS properties KaTeX sets inline; values are checked to be plain lengths, colors or keywords. */
export const KATEX_STYLE_PROPERTIES = new Set([
  'height', 'width', 'min-width', 'vertical-align', 'top', 'bottom', 'left', 'margin', 'margin-left',
  'margin-right', 'margin-top', 'padding-left', 'border-bottom-width', 'border-right-width',
  'border-top-width', 'border-right-style', 'border-style', 'border-width', 'border-color', 'color',
  'background-color', 'position', 'text-shadow',
]);
