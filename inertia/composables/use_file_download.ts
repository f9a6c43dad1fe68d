import { onBeforeUnmount, ref } from 'vue'

export type DownloadState =
  | { name: 'idle' }
  | { name: 'preparing'; bytes: number; lines: number }
  | { name: 'ready'; url: string; filename: string; bytes: number; lines: number }
  | { name: 'failed'; message: string; errors: Record<string, string> }

/**
 * A file the server streams (an export, a proof bundle), fetched by the page
 * so it can say how far along it is (bytes and lines so far) and hand it to
 * the browser as a download link when it is whole. A refusal comes back as
 * its message and its field errors.
 */
export function useFileDownload() {
  const state = ref<DownloadState>({ name: 'idle' })
  let controller: AbortController | null = null

  const release = () => {
    if (state.value.name === 'ready') URL.revokeObjectURL(state.value.url)
  }
  onBeforeUnmount(() => {
    controller?.abort()
    release()
  })

  async function start(url: string, fallbackName: string) {
    release()
    controller = new AbortController()
    state.value = { name: 'preparing', bytes: 0, lines: 0 }
    try {
      const response = await fetch(url, {
        headers: { Accept: 'application/json' },
        signal: controller.signal,
      })
      if (!response.ok || !response.body) return await refused(response)
      const reader = response.body.getReader()
      const chunks: BlobPart[] = []
      let bytes = 0
      let lines = 0
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(value)
        bytes += value.length
        for (const byte of value) if (byte === 10) lines++
        state.value = { name: 'preparing', bytes, lines }
      }
      const type = response.headers.get('content-type') ?? 'application/octet-stream'
      const disposition = response.headers.get('content-disposition') ?? ''
      const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName
      const blob = new Blob(chunks, { type })
      state.value = { name: 'ready', url: URL.createObjectURL(blob), filename, bytes, lines }
    } catch (error) {
      state.value =
        (error as Error).name === 'AbortError'
          ? { name: 'idle' }
          : {
              name: 'failed',
              message: 'The connection broke off; try again.',
              errors: {},
            }
    } finally {
      controller = null
    }
  }

  /** Validation errors name their fields; a problem or any other refusal has its message. */
  async function refused(response: Response) {
    const body = await response.json().catch(() => ({}))
    const errors: Record<string, string> = {}
    for (const error of (body.errors ?? []) as { field?: string; message: string }[]) {
      if (error.field) errors[error.field] ??= error.message
    }
    const message =
      body.detail ??
      body.message ??
      (Object.keys(errors).length ? 'Some choices are not valid.' : 'The download was refused.')
    state.value = { name: 'failed', message, errors }
  }

  const cancel = () => controller?.abort()
  const reset = () => {
    cancel()
    release()
    state.value = { name: 'idle' }
  }

  return { state, start, cancel, reset }
}

/** A size as people read it. */
export function sizeWords(bytes: number) {
  return bytes < 1024 * 1024
    ? `${(bytes / 1024).toFixed(1)} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
