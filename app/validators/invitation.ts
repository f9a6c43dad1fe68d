import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { strictObject } from '#validators/helpers'

/** The invited publisher user chooses its password; the e-mail comes from the invitation. */
export const acceptInvitationValidator = vine.create(
  strictObject({
    password: vine.string().minLength(12).maxLength(128).confirmed(),
    password_confirmation: vine.string().maxLength(128),
  })
)

acceptInvitationValidator.messagesProvider = new SimpleMessagesProvider({
  'password.minLength': 'Choose a password of at least {{ min }} characters.',
  'password.maxLength': 'Choose a password of at most {{ max }} characters.',
  'confirmed': 'The two passwords do not match.',
  'required': 'This field is required.',
})
