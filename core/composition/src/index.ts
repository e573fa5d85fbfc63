export * from './errors.js';
export { SeekframeErrorDataSchema, ErrorBodySchema } from './error-data-schema.js';
export { ERROR_DOCS, ERROR_GROUPS, type ErrorDoc, type ErrorGroup } from './error-docs.js';
export { ERROR_HTTP_STATUS, httpStatusOf, TOOL_ONLY_CODES, type ErrorHttpStatus } from './error-http-status.js';
export type { SourceLocation } from './html-tree.js';
export {
  ATTR,
  COMPOSITION_ATTRIBUTES,
  INTERNAL_ATTRIBUTE_PREFIX,
  type AttributeDoc,
  type CompositionAttribute,
} from './composition-attributes.js';
export {
  StringVariableSchema,
  NumberVariableSchema,
  ColorVariableSchema,
  BooleanVariableSchema,
  EnumOptionSchema,
  EnumVariableSchema,
  CaptionsVariableSchema,
  VariableDeclarationSchema,
  VariableDeclarationsSchema,
  VARIABLE_TYPES,
  VARIABLE_SCHEMAS,
  isHexColor,
  type StringVariable,
  type NumberVariable,
  type ColorVariable,
  type BooleanVariable,
  type EnumVariable,
  type CaptionsVariable,
  type VariableDeclaration,
  type VariableType,
} from './variable-declarations.js';
export {
  parseVariableDeclarations,
  parseVariableDeclarationsAttribute,
  type ParsedVariableDeclarations,
  type VariableDeclarationProblem,
  type VariableRule,
} from './parse-variable-declarations.js';
export { resolveVariables, type VariableLayers } from './resolve-variables.js';
export { validateOverrides, type VariableIssue, type VariableIssueKind } from './validate-overrides.js';
export { parseStartExpression, type StartExpression } from './start-expression.js';
export {
  resolveTiming,
  type TimingItem,
  type TimingFinding,
  type TimingRule,
  type ResolvedTiming,
  type TimingResult,
  type ResolveTimingOptions,
} from './resolve-timing.js';
export {
  inspectComposition,
  type ClipInfo,
  type SubCompositionInfo,
  type CompositionMetadata,
  type CompositionInspection,
} from './inspect-composition.js';
export { extractCompositionMetadata } from './extract-composition-metadata.js';
export { findReferences, type FileReference } from './find-references.js';
export { formatFinding, type LintFinding } from './lint-finding.js';
export { LINT_RULES, LINT_RULE_IDS, lintSeverity, type LintRuleDoc, type LintRuleId, type LintSeverity } from './lint-rules.js';
export { lengthInPage, type LengthInPage } from './length-in-page.js';
export { lintProject, type LintHost } from './lint-project.js';
export { preflightProject, type PreflightHost, type ProjectFileStatus } from './preflight-project.js';
export { resolveReference, type ProjectReference } from './project-references.js';
export { resolveSourcePath, normalizePosixPath, dirnamePosix, isRemoteUrl, relativePosixPath } from './posix-path.js';
export { relativePathProblem, parseStorageKey, storedRenderName, MAX_STORAGE_KEY_BYTES } from './relative-path.js';
export { parseBatchRows, type BatchRow, type BatchValue, type BatchRowProblem } from './batch-rows.js';
export { batchRowsFromCsv } from './batch-csv-rows.js';
export { expandOutputTemplate, sanitizeFileSegment, templatePlaceholders } from './batch-output-template.js';
export { planBatch, type BatchPlanInput, type PlannedRow } from './batch-plan.js';
export {
  ColorGradingSchema,
  COLOR_GRADING_FIELDS,
  COLOR_GRADING_PRESETS,
  COLOR_GRADING_SPACES,
  type ColorGrading,
  type ColorGradingPreset,
  type ColorGradingSpace,
  type GradingField,
} from './color-grading-schema.js';
export { COLOR_GRADING_PRESET_VALUES, effectiveGrading, type EffectiveGrading } from './color-grading-presets.js';
export { parseColorGrading, variableReference, type GradingProblem, type ReferenceLookup } from './parse-color-grading.js';
export { parseCubeLut, MAX_LUT_SIZE, type CubeLut } from './parse-cube-lut.js';
export { fontPackageId, fontInstallCommand, isGenericFontFamily, SYSTEM_FONT_ALIASES, type SystemFontAlias } from './font-family-names.js';
export { scanCssFonts, parseFamilyList, type CssFontUsage, type FontStack } from './css-font-usage.js';
export { parseGoogleFontsUrl, type GoogleFontsRequest, type GoogleFontFamilyRequest, type GoogleFontFace } from './google-fonts-url.js';
export { collectDocumentFonts, locationAt, type DocumentFontUsage, type LocatedFontStack } from './document-font-usage.js';
export {
  OUTPUT_FORMATS,
  FOLDER_FORMATS,
  QUALITIES,
  CRF_MAX,
  CRF_LIMIT,
  BITRATE_PATTERN,
  BITRATE_MIN,
  BITRATE_MAX,
  parseBitrate,
  isUsableBitrate,
  GIF_LOOP_MAX,
  HLS_PLAYLIST,
  HLS_SEGMENT_SECONDS_DEFAULT,
  HLS_SEGMENT_SECONDS_MIN,
  HLS_SEGMENT_SECONDS_MAX,
  SCALE_MIN,
  SCALE_MAX,
  MAX_OUTPUT_SIDE,
  GIF_MAX_SCALED_PIXELS,
  type OutputFormat,
  type Quality,
} from './encoder-settings.js';
export { frameCount, frameTime, frameAt, fpsFromNumber, defaultFps, type Fps } from './frame-timing.js';
export { parseFrameSpan, spanFrames, frameSpanProblem, type FrameSpan, type FrameSpanResult } from './frame-span.js';
export {
  parseStillTime,
  parseStillFrame,
  parseStillList,
  parseStillAt,
  stillFrame,
  type StillAt,
  type StillParse,
} from './still-times.js';
export { listSourceElements, type SourceElement } from './source-elements.js';
export {
  parseCaptionTrack,
  CAPTION_INPUT_SHAPES,
  type CaptionTrack,
  type CaptionSegment,
  type CaptionWord,
  type CaptionProblem,
  type CaptionTrackResult,
} from './caption-track.js';
export { spacedWords, groupWordsIntoSegments, isCjk, graphemes, SEGMENT_PAUSE_SECONDS, type RawWord } from './caption-words.js';
export {
  breakCaptionLines,
  captionPages,
  lineText,
  textColumns,
  activeAt,
  firstFrameAtOrAfter,
  type CaptionPiece,
  type CaptionLine,
  type CaptionPage,
  type CaptionLayoutOptions,
} from './caption-layout.js';
export {
  captionCues,
  formatCaptionFile,
  captionFileFormat,
  CAPTION_FILE_FORMATS,
  SIDECAR_LINE_COLUMNS,
  SIDECAR_MAX_LINES,
  type CaptionCue,
  type CaptionFileFormat,
} from './caption-files.js';
export { pickCompositionRoot, type RootElementView } from './pick-composition-root.js';
export { canonicalJson } from './canonical-json.js';
