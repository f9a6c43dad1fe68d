/**
 * The file last chosen on an uploads page, kept in memory while the portal
 * stays open (Inertia visits do not reload the page): the report's mapping
 * step sends the same file again without asking for it. Nothing is stored;
 * a reload forgets it, and the page then asks for the file once more.
 */
let remembered: File | null = null

export function rememberFile(file: File) {
  remembered = file
}

/** The remembered file, when it is the one the upload was made from (same name and size). */
export function rememberedFile(filename: string | null, bytes: number) {
  return remembered && remembered.name === filename && remembered.size === bytes ? remembered : null
}
