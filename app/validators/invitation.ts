import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { newPassword, PASSWORD_MESSAGES, strictObject } from '#validators/helpers'

/** The invited publisher user chooses its password; the e-mail comes from the invitation. */
export const acceptInvitationValidator = vine.create(
  strictObject({
    ...newPassword(),
  })
)

acceptInvitationValidator.messagesProvider = new SimpleMessagesProvider({
  ...PASSWORD_MESSAGES,
  required: 'This field is required.',
})
