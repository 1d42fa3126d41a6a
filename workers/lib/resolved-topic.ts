/** SPEC §States, Topic: a resolved topic is the original topic behind a check mark and a space. */
export const RESOLVED_TOPIC_PREFIX = '\u2714 ';
