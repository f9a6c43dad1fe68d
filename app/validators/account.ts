import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { newPassword, PASSWORD_MESSAGES, strictObject } from '#validators/helpers'

/** A signed-in user changes its own password; the rules match the invitation's. */
export const changePasswordValidator = vine.create(
  strictObject({
    current_password: vine.string().maxLength(256),
    ...newPassword(),
  })
)

changePasswordValidator.messagesProvider = new SimpleMessagesProvider({
  ...PASSWORD_MESSAGES,
  required: 'This field is required.',
})
