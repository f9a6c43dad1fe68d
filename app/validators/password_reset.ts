import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { email, strictObject } from '#validators/helpers'

/** "Forgot password?": the address to send the link to. The new password itself uses acceptInvitationValidator's rules. */
export const forgotPasswordValidator = vine.create(strictObject({ email: email() }))

forgotPasswordValidator.messagesProvider = new SimpleMessagesProvider({
  'email.email': 'Enter an e-mail address, e.g. name@example.com.',
  'email.maxLength': 'Enter an e-mail address of at most {{ max }} characters.',
  'required': 'This field is required.',
})
