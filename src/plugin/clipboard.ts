// Copying to the clipboard through the renderer's navigator.clipboard; false when unavailable.
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
