/** A legal page: a title, a summary and numbered sections of plain paragraphs. */
export interface LegalDocument {
  title: string;
  /** ISO date of the last change. */
  updated: string;
  summary: string;
  sections: readonly { heading: string; paragraphs: readonly string[] }[];
}
