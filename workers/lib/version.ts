/**
 * SPEC §Versioning. The API implemented is the one the spec was cut from: feature level 185
 * (its changelog ends at 184; 185 is the release with no API change). The version string is
 * that API release, so clients that parse versions see the API they are talking to.
 */
export const SERVICE_FEATURE_LEVEL = 185;
export const SERVICE_VERSION = '7.0';
export const SERVICE_MERGE_BASE = '7.0';
