/**
 * The highlighter's token types and the short CSS classes clients color them by (api-notes §g).
 * A type without a short name of its own is written as its ancestors' classes plus its own
 * (`p p-Indicator`), as the reference's HTML formatter writes it.
 */
export const Text = '';
export const Error = 'err';

export const Comment = 'c';
export const CommentHashbang = 'ch';
export const CommentMultiline = 'cm';
export const CommentPreproc = 'cp';
export const CommentPreprocFile = 'cpf';
export const CommentSingle = 'c1';
export const CommentSpecial = 'cs';

export const Keyword = 'k';
export const KeywordConstant = 'kc';
export const KeywordDeclaration = 'kd';
export const KeywordNamespace = 'kn';
export const KeywordPseudo = 'kp';
export const KeywordReserved = 'kr';
export const KeywordType = 'kt';

export const Operator = 'o';
export const OperatorWord = 'ow';
export const Punctuation = 'p';
export const PunctuationIndicator = 'p p-Indicator';

export const Name = 'n';
export const NameAttribute = 'na';
export const NameBuiltin = 'nb';
export const NameBuiltinPseudo = 'bp';
export const NameClass = 'nc';
export const NameConstant = 'no';
export const NameDecorator = 'nd';
export const NameEntity = 'ni';
export const NameException = 'ne';
export const NameFunction = 'nf';
export const NameFunctionMagic = 'fm';
export const NameLabel = 'nl';
export const NameNamespace = 'nn';
export const NameOther = 'nx';
export const NameTag = 'nt';
export const NameVariable = 'nv';
export const NameVariableClass = 'vc';
export const NameVariableGlobal = 'vg';
export const NameVariableInstance = 'vi';
export const NameVariableMagic = 'vm';

export const LiteralScalarPlain = 'l l-Scalar l-Scalar-Plain';
export const LiteralScalarBlock = 'l l-Scalar l-Scalar-Block';

export const String = 's';
export const StringAffix = 'sa';
export const StringBacktick = 'sb';
export const StringChar = 'sc';
export const StringDoc = 'sd';
export const StringDelimiter = 'dl';
export const StringDouble = 's2';
export const StringEscape = 'se';
export const StringHeredoc = 'sh';
export const StringInterpol = 'si';
export const StringOther = 'sx';
export const StringRegex = 'sr';
export const StringSingle = 's1';
export const StringSymbol = 'ss';

export const Number = 'm';
export const NumberBin = 'mb';
export const NumberFloat = 'mf';
export const NumberHex = 'mh';
export const NumberInteger = 'mi';
export const NumberOct = 'mo';

export const GenericDeleted = 'gd';
export const GenericHeading = 'gh';
export const GenericInserted = 'gi';
export const GenericOutput = 'go';
export const GenericPrompt = 'gp';
export const GenericStrong = 'gs';
export const GenericSubheading = 'gu';
