import { reactive } from 'vue'
import { router } from '@inertiajs/vue3'
import { useToast } from 'primevue/usetoast'
import { rememberFile } from '~/components/uploads/file_memory'

/** Whose portal an upload page is in: the operator's (every publisher's uploads) or a publisher's. */
export type UploadAudience = 'operator' | 'publisher'

/** The limits a file must keep to (config/uploads.ts), told before it is sent. */
export type UploadLimits = { max_bytes: number; max_rows: number }

export type UploadRequest = {
  file: File | null
  /** Column → lead field (null leaves it out), over the default names. */
  mapping?: Record<string, string | null> | null
  /** The operator names the publisher (its slug). */
  publisher?: string
}

/** The XSRF cookie the session sets, as Inertia's own requests send it back. */
function xsrfToken() {
  const cookie = document.cookie.split('; ').find((item) => item.startsWith('XSRF-TOKEN='))
  return cookie ? decodeURIComponent(cookie.slice('XSRF-TOKEN='.length)) : ''
}

/**
 * Sends a file to the portal's uploads route as the request body itself
 * (the server streams it to the uploads engine as POST /v1/uploads does;
 * the file's name, the mapping and the publisher go in the query string),
 * with the sending's progress. Then opens the new upload's report. A refusal
 * comes back as a message and the fields it names. The file is remembered,
 * so the report's mapping step can send it again.
 */
export function useUploadSender(audience: UploadAudience) {
  const toast = useToast()
  const state = reactive({
    processing: false,
    /** Percent of the file sent so far. */
    progress: 0,
    errors: {} as Record<string, string>,
  })

  function send(request: UploadRequest) {
    state.errors = {}
    if (!request.file) {
      state.errors = { file: 'Choose the CSV or JSON Lines file to upload first.' }
      return
    }
    const file = request.file
    rememberFile(file)
    const query = new URLSearchParams({ filename: file.name })
    if (request.mapping) query.set('mapping', JSON.stringify(request.mapping))
    if (audience === 'operator' && request.publisher) query.set('publisher', request.publisher)

    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/${audience}/uploads?${query}`)
    xhr.setRequestHeader('Content-Type', 'application/octet-stream')
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.setRequestHeader('X-XSRF-TOKEN', xsrfToken())
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) state.progress = Math.floor((event.loaded / event.total) * 100)
    }
    xhr.onload = () => {
      let body: { url?: string; message?: string; errors?: Record<string, string> } = {}
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        // Not our JSON: the session ended (the sign-in page answered), or the server failed.
      }
      if (xhr.status === 201 && body.url) {
        router.visit(body.url, { onFinish: () => (state.processing = false) })
        return
      }
      state.processing = false
      state.errors = body.errors ?? {}
      const summary =
        body.message ??
        (xhr.responseURL.includes('/login')
          ? 'Your session has ended: sign in again, then upload the file.'
          : 'The upload failed; try again.')
      if (Object.keys(state.errors).length === 0) state.errors.file = summary
      toast.add({ severity: 'error', summary, life: 8000 })
    }
    xhr.onerror = () => {
      state.processing = false
      state.errors = { file: 'The connection broke off while sending the file; try again.' }
    }
    state.processing = true
    state.progress = 0
    xhr.send(file)
  }

  return { state, send }
}
