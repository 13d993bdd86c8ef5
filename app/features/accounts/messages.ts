/**
 * The one table of the account screens' messages, from the server's answers to the forms' field errors:
 * the spec's (client-portal.md §8) unless the spec is silent.
 */
export const ACCOUNT_MESSAGES = {
  invalidCredentials: "Invalid email or password. Please check your credentials and try again.",
  loginFailed: "Login failed. Please try again.",
  alreadyRegistered: "This email is already registered. Please try logging in instead.",
  emailExists: "Email already exists",
  registrationFailed: "Registration failed. Please try again.",
  resendMissingEmail: "Email address not found. Please register again.",
  resendFailed: "Failed to resend verification email. Please try again.",
  resendSent: "Verification email sent! Please check your inbox.",
  resendException: "An error occurred. Please try again.",
  notYetVerified: "Email not yet verified. Please check your inbox and click the verification link.",
  checkFailed: "Error checking verification status.",
  verifiedAlert: "Email verified successfully! You can now log in to your account.",
  profileSaved: "Profile updated successfully!",
  profileFailed: "Failed to update profile. Please try again.",
  passwordUpdated: "Password updated successfully!",
  passwordFailed: "Failed to update password. Please try again.",
  // The spec is silent on these; they say what happened without revealing more.
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  resetRequested:
    "If an account exists for that email, we have sent a link to reset your password. Please check your inbox.",
  resetLinkInvalid: "This password reset link is invalid or has expired. Please request a new one.",
  resetDone: "Your password has been changed. Please log in with your new password.",
  verificationLinkInvalid: "This verification link is invalid or has expired. Log in to get a new one.",
  currentPasswordWrong: "Current password is incorrect.",
  notificationsSaved: "Notification preferences saved.",
  notificationsFailed: "Failed to save notification preferences. Please try again.",
  // Field errors of the account forms (forms.ts), shown beside the field.
  nameRequired: "Name is required",
  nameTooLong: "Name is too long",
  invalidEmail: "Please enter a valid email address",
  passwordRequired: "Password is required",
  passwordsDoNotMatch: "Passwords do not match",
  newPasswordsDoNotMatch: "New passwords do not match",
  currentPasswordRequired: "Current password is required",
  phoneTooLong: "Phone number is too long",
  phoneInvalid: "Please enter a valid phone number",
  companyTooLong: "Company name is too long",
  addressTooLong: "Address must be at most 200 characters",
  countryTooLong: "Country must be at most 56 characters",
  countryInvalid: "Choose your country from the list",
  taxIdTooLong: "VAT/Tax ID must be at most 40 characters",
  timeZoneInvalid: "Choose one of the listed timezones",
  languageInvalid: "Choose one of the listed languages",
} as const;
